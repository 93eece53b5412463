import { fuzzShard } from './fuzzer.ts';

// the contract fuzzer's routes 1, 4, 7, … (fuzzer.ts)
fuzzShard(0);

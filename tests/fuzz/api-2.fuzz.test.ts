import { fuzzShard } from './fuzzer.ts';

// the contract fuzzer's routes 2, 5, 8, … (fuzzer.ts)
fuzzShard(1);

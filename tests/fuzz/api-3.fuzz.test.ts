import { fuzzShard } from './fuzzer.ts';

// the contract fuzzer's routes 3, 6, 9, … (fuzzer.ts)
fuzzShard(2);

/** The second half of the mutation fuzzer's sources (see mutation.test.ts and fuzz-harness.ts). */
import { defineMutationSuite } from './fuzz-harness.js';

defineMutationSuite(1, 2);

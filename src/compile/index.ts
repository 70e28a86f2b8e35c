export { compileCatalog, COMPILER_VERSION, type CompileOptions, type CompileResult } from './compile.js';
export { CompileError, formatIssue, type RawIssue, type RawIssueCode } from './compile-error.js';
export { Progress } from './progress.js';
export { DEFAULT_MEMORY_BYTES, formatMemorySize, MIN_MEMORY_BYTES, parseMemorySize } from './memory-budget.js';
export { sameRawFiles } from './raw-file.js';

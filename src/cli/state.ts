/** Run-wide facts the entry sets: the last action's exit code (main() resolves to it) and the version. Kept tiny: the entry imports it. */
export const runState = { exitCode: 0 as number, version: '0.0.0' };

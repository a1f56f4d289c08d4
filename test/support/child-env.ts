/**
 * The environment of a process a test starts as a user would start it: little more than `PATH`, so
 * no setting of the runner leaks in. ts-node in the child keeps its compile cache where the run
 * keeps Jest's (jest.config.js), not in the system's temporary folder, which a run leaves as it found it.
 */
export const childEnv = (env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  V8_COMPILE_CACHE_CACHE_DIR: process.env.V8_COMPILE_CACHE_CACHE_DIR,
  ...env,
});

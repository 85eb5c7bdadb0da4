// Property tests explore new inputs on every local run; CI replays one fixed seed so a landing is
// decided by the code, not by the draw. Set FC_SEED to replay a failure reported locally.
import fc from 'fast-check';

const seed = process.env.FC_SEED ?? (process.env.CI ? '20261130' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });

export { run, createProgram } from './program';
export { diffAgentCards } from './diff-cards';
export type { CardChange, CardDiff } from './diff-cards';
export type { CliIO } from './io';

import { TestEnvironment } from 'jest-environment-node';

/** Node's environment whose timers end with the test file (see nodeEnvironment.js). */
declare class NodeEnvironmentWithTimers extends TestEnvironment {}
export = NodeEnvironmentWithTimers;

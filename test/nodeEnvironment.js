/**
 * Node's environment whose timers end with the test file, as jsdom's do when its window closes. In Node's own
 * environment a timer left pending (RTK Query drops an unused answer 60 s after its last subscriber leaves) fires
 * after the file's tests are done; if its work logs (a dev-check warning on a loaded machine), Jest reports "Cannot
 * log after tests are done" and ends the whole run with exit code 1, every test having passed. Use with the docblock
 * `@jest-environment ./test/nodeEnvironment.js`.
 */
const { promisify } = require('node:util');
const { TestEnvironment } = require('jest-environment-node');

/** Wraps `set` (setTimeout or setInterval) so that each handle it returns is remembered until it fires or is cleared. */
function tracked(set, clear, pending, repeats) {
  const wrappedSet = function (callback, ...rest) {
    if (typeof callback !== 'function') return set(callback, ...rest);
    const handle = set(
      function (...args) {
        if (!repeats) pending.delete(handle);
        return callback.apply(this, args);
      },
      ...rest,
    );
    pending.add(handle);
    return handle;
  };
  if (set[promisify.custom]) wrappedSet[promisify.custom] = set[promisify.custom];
  const wrappedClear = (handle) => {
    pending.delete(handle);
    return clear(handle);
  };
  return [wrappedSet, wrappedClear];
}

class NodeEnvironmentWithTimers extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.pendingTimers = new Set();
    [this.global.setTimeout, this.global.clearTimeout] = tracked(setTimeout, clearTimeout, this.pendingTimers, false);
    [this.global.setInterval, this.global.clearInterval] = tracked(
      setInterval,
      clearInterval,
      this.pendingTimers,
      true,
    );
  }

  async teardown() {
    // clearTimeout and clearInterval accept each other's handles.
    for (const handle of this.pendingTimers) clearTimeout(handle);
    this.pendingTimers.clear();
    await super.teardown();
  }
}

module.exports = NodeEnvironmentWithTimers;

'use strict';
/* global setImmediate */
// Preloaded into a spawned host (NODE_OPTIONS=--require …) to stand for a bug on cue: on SIGUSR2
// the process fails as GETLIST_TEST_CRASH says. `exception`: one uncaught exception; `rejection`:
// one unhandled rejection; `loop`: an uncaught exception on every turn of the event loop;
// `tick-loop`: one on every process tick, which starves timers and I/O for good.
const kind = process.env.GETLIST_TEST_CRASH;
process.on('SIGUSR2', () => {
  if (kind === 'rejection') {
    void Promise.reject(new Error('injected rejection'));
  } else if (kind === 'loop' || kind === 'tick-loop') {
    const again = () => {
      if (kind === 'loop') setImmediate(again);
      else process.nextTick(again);
      throw new Error('injected loop');
    };
    again();
  } else {
    throw new Error('injected exception');
  }
});

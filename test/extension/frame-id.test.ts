import { frameIdOf } from '../../extension/background/frame-id';

describe('frameIdOf: which frame a webRequest event belongs to', () => {
  it('keeps 0, and a sub-frame\'s or fenced frame\'s own id', () => {
    expect(frameIdOf({ frameId: 0 })).toBe(0);
    expect(frameIdOf({ frameId: 5, frameType: 'sub_frame', documentLifecycle: 'active' } as { frameId: number })).toBe(5);
    expect(frameIdOf({ frameId: 6, frameType: 'fenced_frame', documentLifecycle: 'active' } as { frameId: number })).toBe(6);
  });

  it('gives the tab\'s active top-level document frame 0 when Chromium reports its internal id', () => {
    expect(frameIdOf({ frameId: 8, frameType: 'outermost_frame', documentLifecycle: 'active' } as { frameId: number })).toBe(0);
    // Firefox and older Chromium: no frameType, the id stands.
    expect(frameIdOf({ frameId: 8 })).toBe(8);
  });

  it('leaves a prerendered, cached or unloading top-level document its own id: not the tab\'s page', () => {
    for (const documentLifecycle of ['prerender', 'cached', 'pending_deletion']) {
      expect(frameIdOf({ frameId: 9, frameType: 'outermost_frame', documentLifecycle } as { frameId: number })).toBe(9);
    }
  });
});

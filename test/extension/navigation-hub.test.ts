import { createNavigationHub, type NavigationDetails, type NavigationEventLike } from '../../extension/background/navigation-hub';

/** A webNavigation event as the browser holds it: the listeners added, each called per dispatch. */
class FakeEvent implements NavigationEventLike {
  readonly listeners: ((d: NavigationDetails) => void)[] = [];
  addListener(listener: (d: NavigationDetails) => void): void {
    this.listeners.push(listener);
  }
  dispatch(d: NavigationDetails): void {
    for (const l of this.listeners) l(d);
  }
}

const details = (url: string, frameId = 0): NavigationDetails => ({ tabId: 3, frameId, url, timeStamp: 100 });

describe('navigation hub', () => {
  test('one browser listener per event, however many subscribers; each subscriber hears every event in subscription order', () => {
    const committed = new FakeEvent();
    const completed = new FakeEvent();
    const hub = createNavigationHub({ onCommitted: committed, onCompleted: completed });
    const heard: string[] = [];
    hub.onCommitted((d) => heard.push(`record ${d.url}`));
    hub.onCommitted((d) => heard.push(`push ${d.url}`));
    hub.onCompleted((d) => heard.push(`inject ${d.url}`));
    hub.onCompleted((d) => heard.push(`load ${d.url}`));
    expect(committed.listeners).toHaveLength(1);
    expect(completed.listeners).toHaveLength(1);
    committed.dispatch(details('https://a.test/'));
    completed.dispatch(details('https://a.test/'));
    committed.dispatch(details('about:blank'));
    expect(heard).toEqual(['record https://a.test/', 'push https://a.test/', 'inject https://a.test/', 'load https://a.test/', 'record about:blank', 'push about:blank']);
  });

  test('no subscriber, no browser listener: the browser sends nothing the background does not use', () => {
    const committed = new FakeEvent();
    const completed = new FakeEvent();
    const hub = createNavigationHub({ onCommitted: committed, onCompleted: completed });
    hub.onCompleted(() => undefined);
    expect(committed.listeners).toHaveLength(0);
    expect(completed.listeners).toHaveLength(1);
  });

  test('a subscriber that throws does not cost the next one its event', () => {
    const committed = new FakeEvent();
    const hub = createNavigationHub({ onCommitted: committed, onCompleted: new FakeEvent() });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const heard: number[] = [];
    hub.onCommitted(() => {
      throw new Error('boom');
    });
    hub.onCommitted((d) => heard.push(d.frameId));
    committed.dispatch(details('https://a.test/', 0));
    expect(heard).toEqual([0]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('boom'));
    warn.mockRestore();
  });
});

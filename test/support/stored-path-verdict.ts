import type { Visit } from '../../src/page/hints/hint-types';
import { createLearnedState } from '../../src/page/hints/learned-state';
import { learnedStateFromJson, learnedStateToJson } from '../../src/page/hints/learned-state-json';
import { pathVerdict } from '../../src/page/hints/path-sample';

const SITE = 'https://shop.example';
/** The page whose visits the path tests learn, and the learned state's key for it. */
export const URL_ = `${SITE}/p`;

/** The verdict of `visits` as the extension reads them back from storage (learned-state-json.ts). */
export function readBack(visits: Visit[]) {
  const state = createLearnedState();
  state.entries.set(URL_, { key: URL_, kind: 'page', host: 'shop.example', visits, blocked: [] });
  const back = learnedStateFromJson(JSON.parse(JSON.stringify(learnedStateToJson(state))));
  expect(back.entries.get(URL_)?.visits).toHaveLength(visits.length);
  return pathVerdict(back.entries.get(URL_)!.visits);
}

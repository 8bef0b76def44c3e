import { CodedError, hasCode, isCodedError } from './coded-error';

class PlantedError extends CodedError<'E_PLANTED' | 'E_OTHER'> {
  override readonly name = 'PlantedError';
}

describe('CodedError', () => {
  test('keeps its code, message, name and cause; is an Error with a stack', () => {
    const cause = new Error('inner');
    const e = new PlantedError('E_PLANTED', 'what went wrong', { cause });
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(CodedError);
    expect([e.code, e.message, e.name, e.cause]).toEqual(['E_PLANTED', 'what went wrong', 'PlantedError', cause]);
    expect(e.stack).toContain('PlantedError: what went wrong');
    expect(String(e)).toBe('PlantedError: what went wrong');
  });
});

describe('isCodedError / hasCode match on code, not on class', () => {
  // A CodedError from another bundle is a different class: only its fields survive.
  const foreign = { name: 'StoreError', code: 'E_STORE_LOCKED', message: 'locked' };
  const nodeError = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

  test.each([
    ['a CodedError subclass', new PlantedError('E_PLANTED', 'x'), true],
    ['a plain {code, message} from another bundle', foreign, true],
    ['a Node error with a string code', nodeError, true],
    ['an Error without a code', new TypeError('x is undefined'), false],
    ['a numeric code (DOMException style)', { code: 22, message: 'quota' }, false],
    ['an empty code', { code: '', message: 'x' }, false],
    ['a code without a message', { code: 'E_X' }, false],
    ['a string', 'E_X', false],
    ['null', null, false],
    ['undefined', undefined, false],
  ])('%s → %s', (_what, value, expected) => {
    expect(isCodedError(value)).toBe(expected);
  });

  test('hasCode takes one code or a list', () => {
    expect(hasCode(foreign, 'E_STORE_LOCKED')).toBe(true);
    expect(hasCode(foreign, 'E_STORE_OPEN')).toBe(false);
    expect(hasCode(nodeError, ['EADDRINUSE', 'ECONNREFUSED'])).toBe(true);
    expect(hasCode(nodeError, [])).toBe(false);
    expect(hasCode(new TypeError('x'), 'E_INTERNAL')).toBe(false);
  });
});

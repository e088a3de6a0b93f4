import { saveChoices } from './saveChoices';

describe('the save choices', () => {
  it.each([
    ['full_access', 'private', ['save']],
    ['read_write', 'private', ['save']],
    ['full_access', 'user', ['saveForEveryone', 'saveAsNewView']],
    ['read_write', 'workspace', ['saveForEveryone', 'saveAsNewView']],
    ['full_access', 'public', ['saveForEveryone', 'saveAsNewView']],
    ['read', 'workspace', ['saveAsNewView']],
    ['read', 'user', ['saveAsNewView']],
  ] as const)('with %s access to a %s report: %j', (access, share, choices) => {
    expect(saveChoices(access, share)).toEqual(choices);
  });
});

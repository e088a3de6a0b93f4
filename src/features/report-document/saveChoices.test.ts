import { saveChoices, shortcutOf } from './saveChoices';

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

describe('the keyboard shortcuts', () => {
  const press = (key: string, modifiers: { ctrl?: boolean; meta?: boolean; shift?: boolean } = {}, target?: Element) =>
    shortcutOf({
      key,
      ctrlKey: modifiers.ctrl ?? false,
      metaKey: modifiers.meta ?? false,
      shiftKey: modifiers.shift ?? false,
      target: target ?? document.body,
    });

  it('undoes with Ctrl+Z or Cmd+Z and redoes with Shift added', () => {
    expect(press('z', { ctrl: true })).toBe('undo');
    expect(press('z', { meta: true })).toBe('undo');
    expect(press('Z', { ctrl: true, shift: true })).toBe('redo');
    expect(press('z', { meta: true, shift: true })).toBe('redo');
  });

  it('saves with Ctrl+S or Cmd+S', () => {
    expect(press('s', { ctrl: true })).toBe('save');
    expect(press('s', { meta: true })).toBe('save');
  });

  it('ignores keys without Ctrl or Cmd, and other keys', () => {
    expect(press('z')).toBeNull();
    expect(press('s', { shift: true })).toBeNull();
    expect(press('y', { ctrl: true })).toBeNull();
  });

  it('leaves typing in a field alone', () => {
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    // jsdom does not compute isContentEditable, which browsers derive from the attribute.
    Object.defineProperty(editable, 'isContentEditable', { value: true });
    for (const target of [document.createElement('input'), document.createElement('textarea'), editable]) {
      expect(press('z', { ctrl: true }, target)).toBeNull();
      expect(press('s', { ctrl: true }, target)).toBeNull();
    }
  });
});

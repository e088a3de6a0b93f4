import { BlueprintProvider } from '@blueprintjs/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useReportShortcuts } from './useReportShortcuts';

function Page({ actions }: { actions: { undo: jest.Mock; redo: jest.Mock; save: jest.Mock } }) {
  useReportShortcuts(actions);
  return (
    <>
      <input aria-label="Title" />
      <textarea aria-label="Notes" />
      <div aria-label="Text" contentEditable="true" suppressContentEditableWarning>
        Hello
      </div>
    </>
  );
}

function setup() {
  const actions = { undo: jest.fn(), redo: jest.fn(), save: jest.fn() };
  render(
    <BlueprintProvider>
      <Page actions={actions} />
    </BlueprintProvider>,
  );
  const press = (key: string, modifiers: { ctrl?: boolean; meta?: boolean; shift?: boolean } = {}, target?: Element) =>
    fireEvent.keyDown(target ?? document.body, {
      key,
      ctrlKey: modifiers.ctrl ?? false,
      metaKey: modifiers.meta ?? false,
      shiftKey: modifiers.shift ?? false,
    });
  const calls = () => ({
    undo: actions.undo.mock.calls.length,
    redo: actions.redo.mock.calls.length,
    save: actions.save.mock.calls.length,
  });
  return { press, calls };
}

describe('the keyboard shortcuts', () => {
  it('undoes with Ctrl+Z or Cmd+Z and redoes with Shift added', () => {
    const { press, calls } = setup();
    press('z', { ctrl: true });
    press('z', { meta: true });
    expect(calls()).toEqual({ undo: 2, redo: 0, save: 0 });
    press('Z', { ctrl: true, shift: true });
    press('z', { meta: true, shift: true });
    expect(calls()).toEqual({ undo: 2, redo: 2, save: 0 });
  });

  it("saves with Ctrl+S or Cmd+S, instead of the browser's page save", () => {
    const { press, calls } = setup();
    expect(press('s', { ctrl: true })).toBe(false);
    press('s', { meta: true });
    expect(calls()).toEqual({ undo: 0, redo: 0, save: 2 });
  });

  it('ignores keys without Ctrl or Cmd, and other keys', () => {
    const { press, calls } = setup();
    press('z');
    press('s', { shift: true });
    press('y', { ctrl: true });
    expect(calls()).toEqual({ undo: 0, redo: 0, save: 0 });
  });

  it('leaves typing in a field alone', () => {
    const { press, calls } = setup();
    for (const name of ['Title', 'Notes', 'Text']) {
      press('z', { ctrl: true }, screen.getByLabelText(name));
      press('s', { ctrl: true }, screen.getByLabelText(name));
    }
    expect(calls()).toEqual({ undo: 0, redo: 0, save: 0 });
  });

  it('lists them in the help dialog that ? opens', async () => {
    setup();
    await act(async () => {
      fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    });
    const dialog = await screen.findByRole('dialog');
    for (const label of ['Undo', 'Redo', 'Save']) expect(screen.getAllByText(label).length).toBe(2);
    expect(dialog.textContent).toContain('Report');
  });
});

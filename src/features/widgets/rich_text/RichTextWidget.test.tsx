import { configureStore, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider, useDispatch, useSelector } from 'react-redux';
import { type Widget } from '../../../contracts/reports';
import { resolveDateRanges } from '../../../engine/dates';
import { type WidgetContext } from '../types';
import { WidgetBody } from '../WidgetBody';
import { INVALID_IMAGE_URL, INVALID_VIDEO_URL, RichTextWidget } from './RichTextWidget';

const context = (editMode: boolean, canEdit = true): WidgetContext => ({
  scope: { workspaceId: 1 },
  ranges: resolveDateRanges('2024-05-15'),
  filters: [],
  locale: 'en_US',
  weekStart: 1,
  flags: [],
  editMode,
  canEdit,
});

const content =
  '<h2 style="text-align: center">Q3 results</h2><p style="text-align: left">Read ' +
  '<a href="https://example.com/q3" target="_blank" rel="noopener noreferrer">the report</a></p>';
const widget: Widget = { id: 'w1', type: 'rich_text', content };

// Slate reports a change in a microtask after the operations; let it run before the clock moves.
const settle = () => act(async () => {});

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('outside edit mode the text is read-only, with its heading and link, and no toolbar', () => {
  render(<RichTextWidget widget={widget} context={context(false)} onChange={jest.fn()} />);
  expect(screen.getByRole('heading', { level: 2, name: 'Q3 results' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'the report' }).getAttribute('href')).toBe('https://example.com/q3');
  expect(screen.getByLabelText('Rich text').getAttribute('contenteditable')).toBe('false');
  expect(screen.queryByRole('toolbar')).toBeNull();
});

test("on a dashboard the text shows once the editor's own chunk has loaded", async () => {
  jest.useRealTimers();
  render(<WidgetBody widget={widget} context={context(false)} onChange={jest.fn()} />);
  expect(await screen.findByRole('heading', { level: 2, name: 'Q3 results' })).toBeTruthy();
  expect(screen.getByLabelText('Rich text').getAttribute('contenteditable')).toBe('false');
});

test('without write access it stays read-only in edit mode', () => {
  render(<RichTextWidget widget={widget} context={context(true, false)} onChange={jest.fn()} />);
  expect(screen.getByLabelText('Rich text').getAttribute('contenteditable')).toBe('false');
  expect(screen.queryByRole('toolbar')).toBeNull();
});

test('in edit mode a block type change is saved as HTML 200 ms later', async () => {
  const onChange = jest.fn();
  render(<RichTextWidget widget={widget} context={context(true)} onChange={onChange} />);
  expect(screen.getByLabelText('Rich text').getAttribute('contenteditable')).toBe('true');
  fireEvent.change(screen.getByRole('combobox', { name: 'Block type' }), { target: { value: 'subtitle' } });
  await settle();
  act(() => jest.advanceTimersByTime(199));
  expect(onChange).not.toHaveBeenCalled();
  act(() => jest.advanceTimersByTime(1));
  expect(onChange).toHaveBeenCalledTimes(1);
  expect(onChange.mock.calls[0][0]).toEqual({
    ...widget,
    content: content.replace(
      '<h2 style="text-align: center">Q3 results</h2>',
      '<h6 style="text-align: center">Q3 results</h6>',
    ),
  });
});

test('an image is inserted at least 140 px wide; other than https URLs are refused', async () => {
  const onChange = jest.fn();
  render(<RichTextWidget widget={widget} context={context(true)} onChange={onChange} />);
  fireEvent.click(screen.getByRole('button', { name: 'Image' }));
  fireEvent.change(screen.getByLabelText('Image URL'), { target: { value: 'http://example.com/a.png' } });
  fireEvent.click(screen.getByRole('button', { name: 'Insert image' }));
  expect(screen.getByText(INVALID_IMAGE_URL)).toBeTruthy();

  fireEvent.change(screen.getByLabelText('Image URL'), { target: { value: 'https://example.com/a.png' } });
  fireEvent.click(screen.getByRole('button', { name: 'Insert image' }));
  await settle();
  act(() => jest.advanceTimersByTime(200));
  expect(onChange).toHaveBeenCalledTimes(1);
  expect(onChange.mock.calls[0][0].content).toBe(
    `${content}<img src="https://example.com/a.png" width="140" height="200" alt=""><p style="text-align: center"></p>`,
  );
});

test('a channel URL is refused as a video; a YouTube watch URL is embedded', async () => {
  const onChange = jest.fn();
  render(<RichTextWidget widget={widget} context={context(true)} onChange={onChange} />);
  fireEvent.click(screen.getByRole('button', { name: 'Video' }));
  fireEvent.change(screen.getByLabelText('Video URL'), { target: { value: 'https://www.youtube.com/@openrate' } });
  fireEvent.click(screen.getByRole('button', { name: 'Insert video' }));
  expect(screen.getByText(INVALID_VIDEO_URL)).toBeTruthy();

  fireEvent.change(screen.getByLabelText('Video URL'), {
    target: { value: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Insert video' }));
  await settle();
  act(() => jest.advanceTimersByTime(200));
  expect(onChange.mock.calls[0][0].content).toContain(
    '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" allowfullscreen></iframe>',
  );
  expect(screen.getByTitle('Embedded video').getAttribute('src')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
});

test('a pending change is saved when the widget goes away', async () => {
  const onChange = jest.fn();
  const { unmount } = render(<RichTextWidget widget={widget} context={context(true)} onChange={onChange} />);
  fireEvent.click(screen.getByRole('button', { name: 'Align right' }));
  await settle();
  unmount();
  expect(onChange).toHaveBeenCalledTimes(1);
  expect(onChange.mock.calls[0][0].content).toContain('<h2 style="text-align: right">Q3 results</h2>');
});

test('a pending change is saved at once when focus leaves the widget (a click on Save)', async () => {
  const onChange = jest.fn();
  render(
    <>
      <RichTextWidget widget={widget} context={context(true)} onChange={onChange} />
      <button type="button">Save</button>
    </>,
  );
  const blockType = screen.getByRole('combobox', { name: 'Block type' });
  blockType.focus();
  fireEvent.change(blockType, { target: { value: 'subtitle' } });
  await settle();
  expect(onChange).not.toHaveBeenCalled();
  fireEvent.blur(blockType, { relatedTarget: screen.getByRole('button', { name: 'Save' }) });
  expect(onChange).toHaveBeenCalledTimes(1);
  expect(onChange.mock.calls[0][0].content).toContain('<h6 style="text-align: center">Q3 results</h6>');
});

test('content changed from outside (undo) replaces what the editor shows', () => {
  const { rerender } = render(<RichTextWidget widget={widget} context={context(false)} />);
  rerender(<RichTextWidget widget={{ ...widget, content: '<p>Restored</p>' }} context={context(false)} />);
  expect(screen.getByText('Restored')).toBeTruthy();
  expect(screen.queryByText('Q3 results')).toBeNull();
});

test('its own save coming back through the store keeps the editor as it is', async () => {
  // The dashboard keeps widgets in the Redux store: its update arrives in a render of its own.
  const widgetSlice = createSlice({
    name: 'widget',
    initialState: widget,
    reducers: { changed: (_state, action: PayloadAction<Widget>) => action.payload },
  });
  const store = configureStore({ reducer: { widget: widgetSlice.reducer } });
  function Dashboard() {
    const current = useSelector((state: { widget: Widget }) => state.widget);
    const dispatch = useDispatch();
    return (
      <RichTextWidget
        widget={current}
        context={context(true)}
        onChange={(next) => dispatch(widgetSlice.actions.changed(next))}
      />
    );
  }
  render(
    <Provider store={store}>
      <Dashboard />
    </Provider>,
  );
  const editorElement = screen.getByLabelText('Rich text');
  fireEvent.click(screen.getByRole('button', { name: 'Align left' }));
  await settle();
  act(() => jest.advanceTimersByTime(200));
  expect(store.getState().widget.content).toContain('<h2 style="text-align: left">Q3 results</h2>');
  await settle();
  expect(screen.getByLabelText('Rich text')).toBe(editorElement);

  // Undo and redo on the dashboard show the content of each step.
  const edited = store.getState().widget;
  act(() => void store.dispatch(widgetSlice.actions.changed(widget)));
  expect(screen.getByRole('heading', { name: 'Q3 results' }).style.textAlign).toBe('center');
  act(() => void store.dispatch(widgetSlice.actions.changed(edited)));
  expect(screen.getByRole('heading', { name: 'Q3 results' }).style.textAlign).toBe('left');
});

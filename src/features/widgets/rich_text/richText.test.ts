import {
  type RichBlock,
  CONTENT_SAVE_DEBOUNCE_MS,
  debounce,
  imageHeight,
  imageWidth,
  isHttpsUrl,
  parseRichText,
  serializeRichText,
  trailingHttpsUrl,
  videoEmbedUrl,
} from './richText';

describe('link detection', () => {
  test.each([
    ['https://example.com', true],
    ['https://www.openrate.io/reports?id=3#top', true],
    ['HTTPS://EXAMPLE.COM/path', true],
    ['http://example.com', false],
    ['ftp://example.com', false],
    ['javascript:alert(1)', false],
    ['www.example.com', false],
    ['https://', false],
    ['https://localhost', false],
    ['https://exa mple.com', false],
  ])('%p is an https URL: %p', (value, expected) => {
    expect(isHttpsUrl(value)).toBe(expected);
  });

  test.each([
    ['see https://example.com/a', 'https://example.com/a'],
    ['https://example.com.', 'https://example.com'],
    ['(https://example.com/x)', null],
    ['read https://example.com/x),', 'https://example.com/x'],
    ['see http://example.com', null],
    ['just words', null],
    ['', null],
    ['https://example.com then more', null],
  ])('the URL just typed in %p is %p', (text, expected) => {
    expect(trailingHttpsUrl(text)).toBe(expected);
  });
});

describe('video URLs', () => {
  test.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['http://youtu.be/dQw4w9WgXcQ?si=abc', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
  ])('%p plays as %p', (url, player) => {
    expect(videoEmbedUrl(url)).toBe(player);
  });

  test.each([
    'https://www.youtube.com/channel/UC38IQsAvIsxxjztdMZQtwHA',
    'https://www.youtube.com/@openrate',
    'https://www.youtube.com/@openrate/videos',
    'https://www.youtube.com/c/openrate',
    'https://www.youtube.com/user/openrate',
    'https://www.youtube.com/watch',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/playlist?list=PL123',
    'https://vimeo.com/channels/staffpicks',
    'https://vimeo.com/openrate',
    'https://vimeo.com/user12345',
    'https://evil.example.com/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)',
    'not a url',
  ])('%p is rejected', (url) => {
    expect(videoEmbedUrl(url)).toBeNull();
  });
});

describe('images', () => {
  test.each([
    [100, 140],
    [140, 140],
    [300.4, 300],
    [Number.NaN, 140],
  ])('width %p is stored as %p', (width, stored) => {
    expect(imageWidth(width)).toBe(stored);
  });

  test('the height is the width divided by 0.7', () => {
    expect(imageHeight(140)).toBe(200);
    expect(imageHeight(350)).toBe(500);
  });
});

describe('HTML', () => {
  const document: RichBlock[] = [
    { type: 'heading', align: 'center', children: [{ text: 'Q3 results' }] },
    { type: 'subtitle', align: 'left', children: [{ text: 'Email & <web>' }] },
    {
      type: 'paragraph',
      align: 'right',
      children: [
        { text: 'Read ' },
        { text: 'the report', bold: true, italic: true },
        { text: ' at ' },
        { type: 'link', url: 'https://example.com/q3?a=1&b=2', children: [{ text: 'example.com' }] },
        { text: '' },
      ],
    },
    { type: 'image', url: 'https://example.com/chart.png', width: 280, children: [{ text: '' }] },
    { type: 'video', url: 'https://www.youtube.com/embed/dQw4w9WgXcQ', children: [{ text: '' }] },
    { type: 'paragraph', align: 'center', children: [{ text: '' }] },
  ];

  test('serialise then parse gives the same document', () => {
    const html = serializeRichText(document);
    expect(html).toBe(
      '<h2 style="text-align: center">Q3 results</h2>' +
        '<h6 style="text-align: left">Email &amp; &lt;web&gt;</h6>' +
        '<p style="text-align: right">Read <strong><em>the report</em></strong> at ' +
        '<a href="https://example.com/q3?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">example.com</a></p>' +
        '<img src="https://example.com/chart.png" width="280" height="400" alt="">' +
        '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" allowfullscreen></iframe>' +
        '<p style="text-align: center"></p>',
    );
    expect(parseRichText(html)).toEqual(document);
    expect(serializeRichText(parseRichText(html))).toBe(html);
  });

  test('empty content is one empty centred paragraph', () => {
    expect(parseRichText(undefined)).toEqual([{ type: 'paragraph', align: 'center', children: [{ text: '' }] }]);
    expect(parseRichText('  ')).toEqual(parseRichText(''));
  });

  test('plain text and unaligned blocks are centred paragraphs', () => {
    expect(parseRichText('Hello <b>world</b>')).toEqual([
      { type: 'paragraph', align: 'center', children: [{ text: 'Hello ' }, { text: 'world', bold: true }] },
    ]);
  });

  test('only its own tags and attributes survive', () => {
    const html =
      '<p onclick="steal()" style="text-align: left; color: red" class="x">Hi<script>alert(1)</script>' +
      '<a href="javascript:alert(1)">click</a> <a href="http://example.com">plain</a></p>' +
      '<img src="javascript:alert(1)" onerror="alert(2)"><img src="https://example.com/a.png" width="20">' +
      '<iframe src="https://evil.example.com/x"></iframe><iframe src="https://www.youtube.com/@openrate"></iframe>' +
      '<style>body{display:none}</style><h4>Small</h4>';
    expect(serializeRichText(parseRichText(html))).toBe(
      '<p style="text-align: left">Hiclick plain</p>' +
        '<img src="https://example.com/a.png" width="140" height="200" alt="">' +
        '<h6 style="text-align: center">Small</h6>',
    );
  });

  test('blocks nested in lists and sections become paragraphs', () => {
    expect(parseRichText('<ul><li>One</li><li>Two</li></ul><div><p>Three</p></div>')).toEqual(
      ['One', 'Two', 'Three'].map((text) => ({ type: 'paragraph', align: 'center', children: [{ text }] })),
    );
  });
});

describe('saving', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('content is saved 200 ms after the last change, once, with the latest content', () => {
    const save = jest.fn();
    const debounced = debounce(save, CONTENT_SAVE_DEBOUNCE_MS);
    debounced('<p>a</p>');
    jest.advanceTimersByTime(150);
    debounced('<p>ab</p>');
    jest.advanceTimersByTime(199);
    expect(save).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith('<p>ab</p>');
    jest.advanceTimersByTime(1000);
    expect(save).toHaveBeenCalledTimes(1);
  });

  test('flush saves a pending change at once; cancel drops it', () => {
    const save = jest.fn();
    const debounced = debounce(save, CONTENT_SAVE_DEBOUNCE_MS);
    debounced('<p>a</p>');
    debounced.flush();
    expect(save).toHaveBeenCalledWith('<p>a</p>');
    debounced.flush();
    expect(save).toHaveBeenCalledTimes(1);
    debounced('<p>b</p>');
    debounced.cancel();
    jest.advanceTimersByTime(1000);
    expect(save).toHaveBeenCalledTimes(1);
  });
});

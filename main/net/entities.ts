/**
 * HTML character references → text, for the places that need it without a DOM (web search result
 * snippets). Its own module so that they do not load linkedom, Readability and html-to-text (~1.2 MB,
 * loaded by web_fetch on its first HTML page — decision 0027).
 */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«',
  raquo: '»', middot: '·', bull: '•', euro: '€', pound: '£', yen: '¥', cent: '¢', times: '×',
  divide: '÷', deg: '°', para: '¶', sect: '§', shy: '', zwnj: '\u200c', zwj: '\u200d',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/giu, (whole, body: string) => {
    if (body[0] !== '#') return NAMED[body.toLowerCase()] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    // NUL, surrogates and out-of-range code points become U+FFFD, as the HTML spec says.
    const invalid = code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
    return invalid ? '\ufffd' : String.fromCodePoint(code);
  });
}

/**
 * Word wrap for receipt printers: lines of at most `width` characters, broken
 * at spaces; a word longer than a line is cut. Line breaks in the text are kept.
 * A character is what prints as one (a grapheme: an emoji, a letter with its
 * accent), never half of one: counting UTF-16 units split an emoji into two
 * lone surrogates, on two lines.
 */
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

const characters = (text: string) => Array.from(GRAPHEMES.segment(text), ({ segment }) => segment);

export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line: string[] = [];
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      for (let rest = characters(word); rest.length > 0; ) {
        const room = line.length === 0 ? width : width - line.length - 1;
        if (rest.length <= room) {
          line = line.length === 0 ? rest : [...line, ' ', ...rest];
          rest = [];
        } else if (line.length > 0) {
          lines.push(line.join(''));
          line = [];
        } else {
          lines.push(rest.slice(0, width).join(''));
          rest = rest.slice(width);
        }
      }
    }
    lines.push(line.join(''));
  }
  return lines;
}

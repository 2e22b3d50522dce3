/**
 * Word wrap for receipt printers: lines of at most `width` characters, broken
 * at spaces; a word longer than a line is cut. Line breaks in the text are kept.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      for (let rest = word; rest !== ''; ) {
        const room = line === '' ? width : width - line.length - 1;
        if (rest.length <= room) {
          line = line === '' ? rest : `${line} ${rest}`;
          rest = '';
        } else if (line !== '') {
          lines.push(line);
          line = '';
        } else {
          lines.push(rest.slice(0, width));
          rest = rest.slice(width);
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

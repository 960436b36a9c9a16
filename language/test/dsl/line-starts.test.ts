/** Line starts and positions against vscode-languageserver-textdocument's, for every offset of a mixed text. */
import { expect, test } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lineStartsOf, positionFrom } from '../../src/dsl/line-starts.js';

test('every offset has the position the LSP text document gives it (LF, CRLF, CR, empty lines, none at the end)', () => {
    const text = 'a\nbc\r\n\r\nd\re\n\nlast';
    const document = TextDocument.create('file:///x.chain', 'chain', 0, text);
    const starts = lineStartsOf(text);
    expect([...starts]).toEqual([0, 2, 6, 8, 10, 12, 13]);
    for (let offset = 0; offset <= text.length; offset++) {
        // the LSP document puts the \n of a \r\n at the \r; no token starts or ends between the two
        if (text[offset - 1] === '\r' && text[offset] === '\n') continue;
        expect(positionFrom(starts, offset), `offset ${offset}`).toEqual(document.positionAt(offset));
    }
});

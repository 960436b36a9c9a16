/**
 * The hover's Markdown as HTML for the diagrams' popups (Sprotty renders a popup as pre-rendered HTML).
 * Only what the hover writes is supported: paragraphs, `- ` lists, **bold**, `code` and the CDF picture, a
 * data-URI SVG, which is inlined as SVG because the webview's content security policy allows no image sources.
 * The result must be well-formed XML: Sprotty's PreRenderedView parses it as such (`<br/>`, not `<br>`).
 */
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function inline(text: string): string {
    return escape(text)
        .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
        .replace(/`([^`]+)`/g, '<code>$1</code>');
}

function image(line: string): string | undefined {
    const m = /^!\[[^\]]*\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)$/.exec(line.trim());
    return m ? `<div class="popup-picture">${Buffer.from(m[1], 'base64').toString('utf-8')}</div>` : undefined;
}

export function markdownHtml(markdown: string): string {
    return markdown
        .split(/\n\s*\n/)
        .map(block => {
            const lines = block.split('\n').filter(l => l.trim());
            if (!lines.length) return '';
            const picture = lines.length === 1 ? image(lines[0]) : undefined;
            if (picture) return picture;
            if (lines.every(l => /^\s*- /.test(l)))
                return `<ul>${lines.map(l => `<li>${inline(l.replace(/^\s*- /, ''))}</li>`).join('')}</ul>`;
            return `<p>${lines.map(inline).join('<br/>')}</p>`;
        })
        .join('');
}

/** Plain lines (a tooltip computed by a view) as one HTML paragraph. */
export function linesHtml(text: string): string {
    return `<p class="popup-details">${text.split('\n').map(escape).join('<br/>')}</p>`;
}

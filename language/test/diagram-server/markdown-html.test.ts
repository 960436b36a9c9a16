/** The hover's Markdown as popup HTML: escaped text, bold, code, lists, and the CDF picture inlined as SVG. */
import { describe, expect, test } from 'vitest';
import { cdfMarkdownImage } from '../../src/diagram-server/cdf-svg.js';
import { linesHtml, markdownHtml } from '../../src/diagram-server/markdown-html.js';

describe('markdownHtml', () => {
    test('paragraphs, bold, code and lists; text is escaped', () => {
        expect(markdownHtml('**box G**: kernel `gain(2)`\n\n- in i: F, 2 MiB\n- out o: F\n\ncost 1 ms <x>')).toBe(
            '<p><b>box G</b>: kernel <code>gain(2)</code></p><ul><li>in i: F, 2 MiB</li><li>out o: F</li></ul>' +
                '<p>cost 1 ms &lt;x&gt;</p>',
        );
    });

    test('the CDF image becomes inline SVG with classes the theme colours (no image source for the CSP)', () => {
        const html = markdownHtml(
            `**latest analysis**\n\n${cdfMarkdownImage(
                [
                    [1, 0.5],
                    [2, 0.5],
                ],
                2,
            )}`,
        );
        expect(html).toContain('<div class="popup-picture"><svg');
        expect(html).toContain('class="cdf-line"');
        expect(html).not.toContain('data:image');
    });

    test('tooltip lines keep their breaks', () => {
        expect(linesHtml('a < b\nc')).toBe('<p class="popup-details">a &lt; b<br/>c</p>');
    });
});

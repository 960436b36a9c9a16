/**
 * The smallest on-screen font size of the visible texts of a diagram (labels, axes, legends), in CSS px: the
 * computed font size times the scale of the text's screen transform. Runs inside the page (page.evaluate or
 * frame.evaluate), so it is self-contained.
 */
export function smallestDiagramText(): { count: number; min: number } {
    const sizes = [...document.querySelectorAll('svg.sprotty-graph text')]
        .filter(t => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0)
        .map(t => {
            const font = parseFloat(getComputedStyle(t).fontSize);
            const m = (t as SVGGraphicsElement).getScreenCTM();
            return font * (m ? Math.hypot(m.a, m.b) : 1);
        });
    return { count: sizes.length, min: Math.min(...sizes) };
}

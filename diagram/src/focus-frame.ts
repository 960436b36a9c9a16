/**
 * The canvas's focus frame is for keyboard users only. Sprotty focuses the svg itself on every mouse press
 * (so keys reach the diagram), and Chromium counts such a scripted focus as :focus-visible, which drew a
 * frame around the whole canvas after each click or drag. A pointer press marks the page; Tab (the keyboard
 * moving the focus) clears the mark, and diagram.css draws the frame only without it.
 */
const POINTER = 'chainlab-pointer-focus';
let marking = false;

export function markPointerFocus(): void {
    if (marking || typeof window === 'undefined') return;
    marking = true;
    const root = document.documentElement;
    window.addEventListener('pointerdown', () => root.classList.add(POINTER), true);
    window.addEventListener('keydown', event => event.key === 'Tab' && root.classList.remove(POINTER), true);
}

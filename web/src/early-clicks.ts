/**
 * A prerendered page shows its buttons before React has hydrated them (the app's code loads after
 * the first paint), and a click on one then would do nothing. So the entry records clicks on the
 * page's buttons from the start, and the app clicks them again once hydration has committed.
 * Recording stops just before hydration begins: from then on React itself handles (and replays)
 * events, so nothing is clicked twice. Links need none of this: they navigate natively. A submit
 * button's own submission is held back, so a form is submitted once, by the app.
 */
let recorded: HTMLButtonElement[] = [];
let stop: (() => void) | undefined;

export function recordEarlyClicks(root: HTMLElement): void {
  const onClick = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button || !root.contains(button)) return;
    // A form's submit button would submit natively (a reload that loses what was typed): the
    // replayed click submits it through the app instead.
    if (button.form && button.type === 'submit') event.preventDefault();
    if (!recorded.includes(button)) recorded.push(button);
  };
  root.addEventListener('click', onClick, true);
  stop = () => root.removeEventListener('click', onClick, true);
}

/** Stops recording; returns a function that replays the recorded clicks (once). */
export function takeEarlyClicks(): () => void {
  stop?.();
  stop = undefined;
  const buttons = recorded;
  recorded = [];
  return () => {
    for (const button of buttons.splice(0)) {
      if (button.isConnected && !button.disabled) button.click();
    }
  };
}

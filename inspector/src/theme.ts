// Light or dark: the system's choice (prefers-color-scheme) unless the person picks one, which
// this browser remembers. The CSS reads `data-theme` on <html>.
import { byId } from './dom.js';

const THEMES = ['system', 'light', 'dark'] as const;
type Theme = (typeof THEMES)[number];
const STORAGE_KEY = 'petstore-kit-inspector-theme';

/** Sets up the theme button: each press goes to the next of system, light and dark. */
export function setUpTheme(): void {
  const button = byId<HTMLButtonElement>('theme');
  let theme = stored();
  const apply = () => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    button.textContent = `Theme: ${theme}`;
  };
  apply();
  button.addEventListener('click', () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length] ?? 'system';
    try {
      localStorage.setItem(STORAGE_KEY, theme);
    } catch {
      // Storage refused (a private window): the choice lasts as long as the page.
    }
    apply();
  });
}

function stored(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return THEMES.find((theme) => theme === value) ?? 'system';
  } catch {
    return 'system';
  }
}

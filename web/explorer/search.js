import { el, itemContent, pageHref } from './render.js';

const GROUPS = [
  ['songs', 'Songs'],
  ['albums', 'Albums'],
  ['artists', 'Artists'],
  ['playlists', 'Playlists'],
];
const PER_GROUP = 5;
const DEBOUNCE_MS = 120;

/**
 * Search as you type: the search box becomes an ARIA combobox over a listbox of the API's
 * results, grouped by type. Up and Down move through the results (the box keeps the focus and
 * points at the active one), Enter opens it (or, with none chosen, submits the form to the
 * results page), Escape closes the list, then clears the box.
 */
export function searchAsYouType({ input, listbox, status, v1 }) {
  let timer = 0;
  let controller = null;
  let options = [];
  let active = -1;

  const open = (yes) => {
    listbox.hidden = !yes;
    input.setAttribute('aria-expanded', String(yes));
    if (!yes) activate(-1);
  };

  const activate = (index) => {
    if (active >= 0 && options[active]) options[active].setAttribute('aria-selected', 'false');
    active = index;
    if (active >= 0) {
      options[active].setAttribute('aria-selected', 'true');
      options[active].scrollIntoView({ block: 'nearest' });
      input.setAttribute('aria-activedescendant', options[active].id);
    } else input.removeAttribute('aria-activedescendant');
  };

  const show = (term, body) => {
    options = [];
    const groups = GROUPS.filter(([key]) => body[key]?.data?.length > 0).map(([key, label]) =>
      el(
        'div',
        { role: 'group', 'aria-label': label },
        el('div', { class: 'group-label', 'aria-hidden': 'true' }, label),
        body[key].data.map((resource) => {
          const option = el(
            'a',
            { role: 'option', id: `search-option-${options.length}`, href: pageHref(resource.type, resource.id), tabindex: '-1', 'aria-selected': 'false' },
            itemContent(resource),
          );
          options.push(option);
          return option;
        }),
      ),
    );
    activate(-1);
    listbox.replaceChildren(...groups);
    open(options.length > 0);
    status.textContent = options.length === 0 ? `No results for ${term}` : `${options.length} results; use the up and down arrows to choose one`;
  };

  const run = async () => {
    const term = input.value.trim();
    controller?.abort();
    if (term.length === 0) {
      open(false);
      status.textContent = '';
      return;
    }
    controller = new AbortController();
    const started = performance.now();
    try {
      const query = new URLSearchParams({ term, types: 'song,album,artist,playlist', limit: String(PER_GROUP) });
      const response = await fetch(`${v1}/search?${query}`, { signal: controller.signal, headers: { accept: 'application/json' } });
      const body = await response.json();
      if (term !== input.value.trim()) return;
      if (response.ok) {
        show(term, body);
        // The page's own timing of a keystroke's round trip (request sent to results shown, the
        // debounce before it aside): what bench/typing-bench.mjs reads.
        performance.measure('omm-search', { start: started, detail: { term } });
      } else {
        open(false);
        status.textContent = body?.error?.message ?? `Search failed (${response.status})`;
      }
    } catch (err) {
      if (err.name !== 'AbortError') status.textContent = 'Search failed';
    }
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (event) => {
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      if (listbox.hidden) open(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      activate(active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count);
    } else if (event.key === 'Enter' && active >= 0 && !listbox.hidden) {
      event.preventDefault();
      window.location.assign(options[active].href);
    } else if (event.key === 'Escape') {
      if (!listbox.hidden) open(false);
      else input.value = '';
      event.preventDefault();
    }
  });
  // A click on a result is a plain link; keeping the focus in the box lets it land.
  listbox.addEventListener('mousedown', (event) => event.preventDefault());
  input.addEventListener('blur', () => open(false));
  input.addEventListener('focus', () => {
    if (options.length > 0 && input.value.trim().length > 0) open(true);
  });
}

// The explorer's one script: it finds what the page has and wires it. No framework, no build.
import { matchTester } from './match.js';
import { el } from './render.js';
import { searchAsYouType } from './search.js';

const v1 = document.querySelector('meta[name="omm-v1"]')?.getAttribute('content') ?? '/v1';

const input = document.getElementById('q');
const listbox = document.getElementById('search-results');
const status = document.getElementById('search-status');
if (input && listbox && status) searchAsYouType({ input, listbox, status, v1 });

const form = document.getElementById('match-form');
const answer = document.getElementById('match-answer');
if (form && answer) matchTester({ form, answer, v1 });

// Artwork that does not load (its host is down or out of reach) becomes the empty box a
// resource without artwork shows, not a broken image.
const emptyBox = (img) => img.replaceWith(el('span', { class: `${img.className} none`, 'aria-hidden': 'true' }));
document.addEventListener(
  'error',
  (event) => event.target instanceof HTMLImageElement && event.target.classList.contains('art') && emptyBox(event.target),
  true,
);
// Those that failed before this script ran.
for (const img of document.querySelectorAll('img.art')) if (img.complete && img.naturalWidth === 0 && img.currentSrc) emptyBox(img);

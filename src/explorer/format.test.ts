import { describe, expect, it } from 'vitest';
import { artworkUrl, duration, parseDuration } from './format.js';
import { escapeHtml, html } from './html.js';

describe('the explorer writes values for people', () => {
  it('writes durations and reads them back as typed', () => {
    expect(duration(199386)).toBe('3:19');
    expect(duration(3723000)).toBe('1:02:03');
    expect(duration(0)).toBe('0:00');
    expect(duration(undefined)).toBeNull();
    expect(duration(-1)).toBeNull();
    expect(parseDuration('3:19')).toBe(199000);
    expect(parseDuration(' 199 ')).toBe(199000);
    expect(parseDuration('199.4')).toBe(199400);
    expect(parseDuration('1:02:03')).toBe(3723000);
    expect(parseDuration('')).toBeUndefined();
    expect(parseDuration(undefined)).toBeUndefined();
    expect(parseDuration('3m19s')).toBeNaN();
    expect(parseDuration('-3')).toBeNaN();
  });

  it('shows artwork only from absolute http and https URLs, a {w}x{h} template filled in', () => {
    expect(artworkUrl('https://img.example.com/a/{w}x{h}bb.jpg', 96)).toBe('https://img.example.com/a/96x96bb.jpg');
    expect(artworkUrl('http://img.example.com/a.jpg', 96)).toBe('http://img.example.com/a.jpg');
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/local.png', '//host/a.jpg', 'ftp://host/a.jpg', '', null, 42]) {
      expect(artworkUrl(bad, 96), String(bad)).toBeNull();
    }
  });
});

describe('html', () => {
  it('escapes every value but markup made by a template', () => {
    const name = `<img src=x onerror="alert('1')">&`;
    expect(escapeHtml(name)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
    const inner = html`<b>${name}</b>`;
    expect(html`<p title="${name}">${inner}${[1, ' & ', null, false, undefined, html`<br>`]}</p>`.text).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;"><b>&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;</b>1 &amp; <br></p>',
    );
  });
});

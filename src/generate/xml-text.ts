// Characters XML 1.0 does not allow at all (C0 controls but tab, line feed and carriage return;
// U+FFFE and U+FFFF; surrogates that are not in a pair): dropped rather than escaped.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SPECIAL = /[&<>"']/g;
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `text` as XML character data or an attribute value (either quote): the five specials escaped. */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '').replace(SPECIAL, (c) => ENTITIES[c]);
}

/**
 * An indented XML document built line by line: `open`/`close` a container, `leaf` an element
 * with text. Every text and attribute value is escaped here, so callers pass plain strings.
 */
export class XmlLines {
  private readonly lines: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  private pad = '';

  private static attrs(attrs: Readonly<Record<string, string | number>> | undefined): string {
    if (!attrs) return '';
    let out = '';
    for (const [name, value] of Object.entries(attrs)) out += ` ${name}="${xmlEscape(String(value))}"`;
    return out;
  }

  open(name: string, attrs?: Readonly<Record<string, string | number>>): this {
    this.lines.push(`${this.pad}<${name}${XmlLines.attrs(attrs)}>`);
    this.pad += '  ';
    return this;
  }

  close(name: string): this {
    this.pad = this.pad.slice(2);
    this.lines.push(`${this.pad}</${name}>`);
    return this;
  }

  leaf(name: string, text: string | number, attrs?: Readonly<Record<string, string | number>>): this {
    this.lines.push(`${this.pad}<${name}${XmlLines.attrs(attrs)}>${xmlEscape(String(text))}</${name}>`);
    return this;
  }

  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/**
 * A small element tree for one item of a DDEX message (a SoundRecording, a Release, a Party, a
 * Deal): the streaming reader builds one per item, the item readers reduce it to a compact record,
 * and the tree is dropped. Only unqualified attributes are kept (DDEX's own; not xmlns or xsi).
 */
export interface XNode {
  /** Local name. */
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XNode[];
  /** Character data of a leaf element, as written (containers keep ''). */
  text: string;
  /** Where the element's content starts: 1-based line and column. */
  readonly line: number;
  readonly column: number;
  readonly parent: XNode | null;
  /** 1-based position among the parent's children of the same name. */
  readonly index: number;
  /** For the root of a captured item: the element path of its parent in the message. */
  readonly parentPath?: string;
}

/** `SoundRecording[3]` for the third, `SoundRecording` for the first of its name. */
export const pathStep = (name: string, index: number): string => (index > 1 ? `${name}[${index}]` : name);

/** `NewReleaseMessage/ResourceList/SoundRecording[3]/Duration`. */
export function pathOf(node: XNode): string {
  const steps: string[] = [];
  let at: XNode | null = node;
  let top: XNode = node;
  while (at) {
    steps.push(pathStep(at.name, at.index));
    top = at;
    at = at.parent;
  }
  steps.reverse();
  return top.parentPath ? `${top.parentPath}/${steps.join('/')}` : steps.join('/');
}

export const child = (node: XNode | undefined, name: string): XNode | undefined => node?.children.find((c) => c.name === name);

export const kids = (node: XNode | undefined, name: string): XNode[] => (node ? node.children.filter((c) => c.name === name) : []);

/** Every descendant (depth first, document order) named `name`. */
export function descendants(node: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const c of node.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/**
 * Text with XML whitespace runs (space, tab, CR, LF) collapsed and trimmed; other spaces such as
 * U+3000 in Japanese titles are kept. Undefined for a missing or blank element.
 */
export function textOf(node: XNode | undefined): string | undefined {
  if (!node) return undefined;
  const text = node.text.replace(/[ \t\r\n]+/g, ' ').trim();
  return text.length > 0 ? text : undefined;
}

export const childText = (node: XNode | undefined, name: string): string | undefined => textOf(child(node, name));

export const isTrue = (value: string | undefined): boolean => value === 'true' || value === '1';

/**
 * How well a territory- or script-repeated element fits a worldwide catalog: Worldwide first
 * (`ApplicableTerritoryCode`/`TerritoryCode` attribute in 4.x, a `TerritoryCode` child in 3.8's
 * …DetailsByTerritory), then a 3.8 block that only excludes territories (it covers nearly the
 * world), then `IsDefault="true"`, then the message's own language (or none given). Ties keep
 * document order.
 */
export function fitness(node: XNode, language: string | undefined): number {
  let score = 0;
  const territory = node.attrs.ApplicableTerritoryCode ?? node.attrs.TerritoryCode;
  if (territory === 'Worldwide' || kids(node, 'TerritoryCode').some((t) => textOf(t) === 'Worldwide')) score += 8;
  else if (!child(node, 'TerritoryCode') && child(node, 'ExcludedTerritoryCode')) score += 4;
  if (isTrue(node.attrs.IsDefault)) score += 2;
  const script = node.attrs.LanguageAndScriptCode;
  if (script === undefined || (language !== undefined && script.toLowerCase() === language.toLowerCase())) score += 1;
  return score;
}

/** The best fit of several alternatives (see fitness), or undefined when there are none. */
export function best(nodes: readonly XNode[], language: string | undefined): XNode | undefined {
  let chosen: XNode | undefined;
  let chosenScore = -1;
  for (const node of nodes) {
    const score = fitness(node, language);
    if (score > chosenScore) {
      chosen = node;
      chosenScore = score;
    }
  }
  return chosen;
}

/** Alternatives in order of fit, best first (stable). */
export function byFitness(nodes: readonly XNode[], language: string | undefined): XNode[] {
  return nodes
    .map((node, i) => ({ node, i, score: fitness(node, language) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((e) => e.node);
}

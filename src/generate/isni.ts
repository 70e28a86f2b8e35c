/**
 * A synthetic ISNI for artist `index`: 15 digits (`00000005` and the index in 7 digits) and the
 * ISO 7064 MOD 11-2 check character, as ISNIs have. The DDEX parties and the MusicBrainz artists
 * carry it, so an import tells artists who share a name apart as the model does.
 */
export function syntheticIsni(index: number): string {
  const digits = `00000005${String(index).padStart(7, '0')}`;
  let total = 0;
  for (const d of digits) total = ((total + Number(d)) * 2) % 11;
  const check = (12 - (total % 11)) % 11;
  return `${digits}${check === 10 ? 'X' : check}`;
}

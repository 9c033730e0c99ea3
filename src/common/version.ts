/** This release's version; scripts/release.sh sets it together with package.json (a unit test checks they agree). */
export const VERSION = '0.1.0';

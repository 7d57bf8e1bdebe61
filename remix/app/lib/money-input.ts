/** An amount in minor units as a form shows it (the parsing side is forms/money.ts, loaded with the form's schema). */
export const reaisText = (minor: number) => (minor / 100).toFixed(2).replace(".", ",");

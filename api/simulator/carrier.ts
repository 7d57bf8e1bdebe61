/**
 * The carrier the simulator's receipts name for a number: deterministic from its last digit, so
 * a test can predict it (0 and 4 and 8 Vivo, 1/5/9 Claro, 2/6 TIM, 3/7 Oi). No imports: usable
 * from tests and any process.
 */
export const SIMULATED_CARRIERS = ["Vivo", "Claro", "TIM", "Oi"] as const;

export function simulatedCarrier(number: string): string {
  const digits = number.replace(/\D/g, "");
  const last = digits ? Number(digits[digits.length - 1]) : 0;
  return SIMULATED_CARRIERS[last % SIMULATED_CARRIERS.length];
}

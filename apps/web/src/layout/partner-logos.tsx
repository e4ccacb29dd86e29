// Two partner logos for the footer, drawn for Tracemill (abstract marks, no third-party artwork).
export function PartnerLogos() {
  return (
    <div className="partners">
      <svg width="150" height="40" viewBox="0 0 150 40" role="img" aria-label="Partner: Open Network Lab">
        <circle cx="20" cy="20" r="14" fill="none" stroke="#2f6fb3" strokeWidth="3" />
        <path d="M9 20 h22 M20 9 q-8 11 0 22 M20 9 q8 11 0 22" fill="none" stroke="#2f6fb3" strokeWidth="2" />
        <text x="42" y="18" fontSize="11" fontWeight="700" fill="currentColor">
          Open Network
        </text>
        <text x="42" y="31" fontSize="11" fill="currentColor">
          Lab
        </text>
      </svg>
      <svg width="150" height="40" viewBox="0 0 150 40" role="img" aria-label="Partner: Secure Systems Institute">
        <path d="M20 4 l14 6 v9 q0 11 -14 17 q-14 -6 -14 -17 v-9 z" fill="#2e8b57" />
        <path d="M14 20 l4 4 l8 -9" fill="none" stroke="#fff" strokeWidth="3" />
        <text x="42" y="18" fontSize="11" fontWeight="700" fill="currentColor">
          Secure Systems
        </text>
        <text x="42" y="31" fontSize="11" fill="currentColor">
          Institute
        </text>
      </svg>
    </div>
  );
}

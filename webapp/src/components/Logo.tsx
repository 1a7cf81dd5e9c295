interface LogoProps {
  size?: number;
}

/** The Flowmill mark: a trigger fanning out to two nodes. */
export function Logo({ size = 32 }: LogoProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#ff6d5a" />
      <path
        d="M8 16h5.5l4-6H24M13.5 16l4 6H24"
        fill="none"
        stroke="#fff"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="8" cy="16" r="2.8" fill="#fff" />
      <circle cx="24" cy="10" r="2.8" fill="#fff" />
      <circle cx="24" cy="22" r="2.8" fill="#fff" />
    </svg>
  );
}

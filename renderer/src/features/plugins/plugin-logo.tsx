/** The catalog's logo, or the first letter on the brand colour when the entry ships none. */
export function PluginLogo({ name, logo, color }: { name: string; logo?: { mime: string; data_base64: string } | null; color?: string | null }) {
  if (logo && /^image\/(png|svg\+xml|jpeg|webp)$/.test(logo.mime)) {
    return <img className="plugin-logo" src={`data:${logo.mime};base64,${logo.data_base64}`} alt="" width={40} height={40} />;
  }
  return (
    <span className="plugin-logo plugin-monogram" style={color ? { background: color } : undefined} aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

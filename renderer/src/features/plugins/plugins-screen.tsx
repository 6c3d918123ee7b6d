export function PluginsScreen() {
  return (
    <section className="screen" aria-labelledby="plugins-title">
      <h1 id="plugins-title">Plugins</h1>
      <p className="placeholder">
        Plugin setup arrives with the plugin system: browsing the catalog, installing a verified plugin, and
        connecting its accounts will happen here.
      </p>
    </section>
  );
}

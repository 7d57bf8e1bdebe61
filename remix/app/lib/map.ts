/** The map of a location message: an OpenStreetMap embed (the only site our pages frame) and a link. */
export const MAP_ORIGIN = "https://www.openstreetmap.org";

export function osm(lat: number, lon: number) {
  const d = 0.005;
  const bbox = [lon - d, lat - d, lon + d, lat + d].map((v) => v.toFixed(6)).join(",");
  return {
    embed: `${MAP_ORIGIN}/export/embed.html?bbox=${bbox}&layer=mapnik&marker=${lat.toFixed(6)},${lon.toFixed(6)}`,
    link: `${MAP_ORIGIN}/?mlat=${lat.toFixed(6)}&mlon=${lon.toFixed(6)}#map=16/${lat.toFixed(6)}/${lon.toFixed(6)}`,
  };
}

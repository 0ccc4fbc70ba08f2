// KML (Google Earth, farm-management software): placemarks as GeoJSON features through @tmcw/togeojson; always WGS 84.
import { kml } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { CommandFailure } from '../failures.js';
import type { SourceFile } from './source.js';

export function readKml(text: string): SourceFile {
  let document;
  try {
    // xmldom throws on a fatal error: XML that is not well-formed.
    document = new DOMParser().parseFromString(text, 'text/xml');
  } catch (error) {
    throw new CommandFailure(`the KML is not well-formed XML: ${(error as Error).message}`);
  }
  const collection = kml(document);
  return {
    format: 'KML',
    crs: 'EPSG:4326',
    features: collection.features.map((feature) => ({ properties: { ...feature.properties }, geometry: feature.geometry })),
  };
}

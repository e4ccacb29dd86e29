// Public surface of the images capability: sessions as grayscale PNG rows, zipped with a manifest and the CSV.
export { extractImages, IMAGES_CSV_ENTRY, IMAGES_ZIP_FILE, type ImagesOptions } from "./extract-images.js";

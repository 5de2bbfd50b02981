//! Share links (`?hs=`: gzip + base64url of the canvas JSON) and JSON file export/import.

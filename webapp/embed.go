// Package webapp embeds the built editor (webapp/dist) into the api binary.
package webapp

import "embed"

// Dist is the output of `npm run build`. dist/.gitkeep keeps the folder present in a fresh
// clone so Go builds before the web app is built; the api then says how to build it.
//
//go:embed all:dist
var Dist embed.FS

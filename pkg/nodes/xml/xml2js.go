package xml

// ParseDefault parses an XML document as xml2js's Parser does with its default options: every
// child is a list, attributes go under "$" and text next to them under "_", and the root
// element is kept as the single key. Blank documents give nil. Libraries n8n's nodes use on top
// of xml2js (such as rss-parser) read this shape.
func ParseDefault(doc string) (any, error) {
	return parse(doc, parseOptions{attrKey: "$", charKey: "_", explicitArray: true, explicitRoot: true})
}

package trigger

import "regexp"

// botPattern matches the user agents of crawlers, link previewers and monitors, as the isbot
// list n8n's ignoreBots option uses does for the common ones.
var botPattern = regexp.MustCompile(`(?i)(bot\b|bot[/;_-]|crawl|spider|slurp|facebookexternalhit|facebookcatalog|` +
	`embedly|preview|pinterest|vkshare|w3c_validator|whatsapp|telegrambot|discordbot|slackbot|twitterbot|` +
	`linkedinbot|skypeuripreview|bingpreview|headlesschrome|lighthouse|pingdom|uptimerobot|statuscake|` +
	`python-requests|go-http-client|curl/|wget/|httpclient|okhttp|axios/|node-fetch)`)

// IsBot reports whether a request's user agent belongs to a bot (scripts' HTTP clients count);
// an empty one does not.
func IsBot(userAgent string) bool { return botPattern.MatchString(userAgent) }

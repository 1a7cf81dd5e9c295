package mail

import (
	"fmt"
	"html"
)

// Invitation is the mail that asks someone to finish their account; link opens the sign-up
// page, instance is the editor's address.
func Invitation(to, link, instance string) Message {
	return Message{
		To:      to,
		Subject: "You have been invited to Flowmill",
		Text: fmt.Sprintf("You have been invited to join the Flowmill instance at\r\n%s\r\n\r\n"+
			"Set up your account here:\r\n%s\r\n\r\nIf you did not expect this invitation, ignore this mail.\r\n", instance, link),
		HTML: fmt.Sprintf(`<p>You have been invited to join Flowmill (%s).</p>`+
			`<p><a href="%s">Set up your account</a></p><p>If you did not expect this invitation, ignore this mail.</p>`,
			html.EscapeString(instance), html.EscapeString(link)),
	}
}

// PasswordReset is the mail with a single-use link to choose a new password, valid for validFor
// (as words, such as "2 hours").
func PasswordReset(to, firstName, link, instance, validFor string) Message {
	greeting := "Hi"
	if firstName != "" {
		greeting = "Hi " + firstName
	}
	return Message{
		To:      to,
		Subject: "Reset your Flowmill password",
		Text: fmt.Sprintf("%s,\r\n\r\nSomeone asked to reset the password of your account at the Flowmill instance\r\n%s\r\n\r\n"+
			"Choose a new password here (the link works once, for %s):\r\n%s\r\n\r\n"+
			"If this was not you, ignore this mail: your password stays as it is.\r\n", greeting, instance, validFor, link),
		HTML: fmt.Sprintf(`<p>%s,</p><p>Someone asked to reset the password of your Flowmill account at %s.</p>`+
			`<p><a href="%s">Choose a new password</a> (the link works once, for %s).</p>`+
			`<p>If this was not you, ignore this mail: your password stays as it is.</p>`,
			html.EscapeString(greeting), html.EscapeString(instance), html.EscapeString(link), validFor),
	}
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/auth"
	"github.com/flowmill/flowmill/pkg/store"
)

// userResponse is a user as the editor sees it (n8n's PublicUser); never the password.
type userResponse struct {
	ID         string       `json:"id"`
	Email      *string      `json:"email"`
	FirstName  *string      `json:"firstName"`
	LastName   *string      `json:"lastName"`
	IsPending  bool         `json:"isPending"`
	GlobalRole roleResponse `json:"globalRole"`
	// PersonalizationAnswers is null until answered, and left out of user lists.
	PersonalizationAnswers json.RawMessage `json:"personalizationAnswers,omitempty"`
}

type roleResponse struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Scope string `json:"scope"`
}

// roleIDs are n8n's ids of the global roles.
var roleIDs = map[string]int{store.RoleOwner: 1, store.RoleMember: 2}

func toUserResponse(u *store.User) userResponse {
	answers := json.RawMessage("null")
	if len(u.PersonalizationAnswers) > 0 {
		answers = json.RawMessage(u.PersonalizationAnswers)
	}
	return userResponse{
		ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		IsPending:              u.IsPending(),
		GlobalRole:             roleResponse{ID: roleIDs[u.GlobalRole], Name: u.GlobalRole, Scope: "global"},
		PersonalizationAnswers: answers,
	}
}

// decodeBody reads a JSON object body into v.
func decodeBody(c fiber.Ctx, v any) error {
	if err := json.Unmarshal(c.Body(), v); err != nil {
		return badRequest("The body must be a JSON object: " + err.Error())
	}
	return nil
}

// policyError turns an account rule violation into a 400 with its message.
func policyError(err error) error {
	var pe *auth.PolicyError
	if errors.As(err, &pe) {
		return badRequest(pe.Message)
	}
	return err
}

// hashNewPassword checks a new password against the rules and hashes it.
func hashNewPassword(p string) (string, error) {
	if err := auth.ValidatePassword(p); err != nil {
		return "", policyError(err)
	}
	return auth.HashPassword(p)
}

func (s *server) requireUserManagement() error {
	if s.cfg.UserManagementDisabled {
		return badRequest("User management is disabled on this instance")
	}
	return nil
}

// getLogin answers who the browser is signed in as. Until an owner is set up (and while user
// management is off), a browser without a valid session is signed in as the password-less
// default owner, but only when it is on this machine or presents the setup token
// (?setupToken=…, printed in the log at start): nobody else who can reach the port gets it.
func (s *server) getLogin(c fiber.Ctx) error {
	u, err := s.currentUser(c)
	if err == nil {
		return respond(c, toUserResponse(u))
	}
	if !errors.Is(err, errUnauthorized) {
		return err
	}
	if c.Cookies(auth.CookieName) != "" {
		s.clearCookie(c)
	}
	if !s.cfg.UserManagementDisabled {
		setUp, err := s.flag(c, store.SettingOwnerSetUp)
		if err != nil {
			return err
		}
		if setUp {
			return errUnauthorized
		}
	}
	token := c.Query("setupToken")
	switch {
	case token != "" && !auth.SetupTokenMatches(s.cfg.EncryptionKey, token):
		return unauthorized("This setup link is not valid: use the one in Flowmill's log")
	case token == "" && !s.isLocal(c):
		return unauthorized(setupOnlyLocally)
	}
	u, err = s.in.Store.EnsureDefaultOwner(c.Context())
	if err != nil {
		return err
	}
	if err := s.signIn(c, u, token != ""); err != nil {
		return err
	}
	return respond(c, toUserResponse(u))
}

// setupOnlyLocally says why a remote browser is not signed in before owner setup.
const setupOnlyLocally = "Unauthorized: until the owner account is set up, Flowmill is only open on the machine it runs on, or through the setup link in its log"

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// postLogin signs in with e-mail and password, within the per-IP and per-account limits.
func (s *server) postLogin(c fiber.Ctx) error {
	if err := s.requireUserManagement(); err != nil {
		return err
	}
	var req loginRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if req.Email == "" || req.Password == "" {
		return badRequest("Email and password are both required")
	}
	email, _ := auth.NormalizeEmail(req.Email)
	if email == "" {
		email = req.Email
	}
	ip := s.clientIP(c)
	if ok, wait, err := s.limiter.Attempt(c.Context(), s.limits.loginBackoff, ip, s.now()); err != nil || !ok {
		if err != nil {
			return err
		}
		return tooManyAttempts(c, wait)
	}
	if err := s.limit(c, s.limits.loginIP, ip); err != nil {
		return err
	}
	if err := s.limit(c, s.limits.loginPair, loginPairKey(email, ip)); err != nil {
		return err
	}
	u, err := s.in.Store.GetUserByEmail(c.Context(), email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	var hash string
	if u != nil && !u.Disabled {
		hash = deref(u.Password)
	}
	// Unknown accounts cost a full comparison too, so timing does not reveal which exist.
	if !auth.CheckPassword(hash, req.Password) {
		if err := s.limiter.Fail(c.Context(), s.limits.loginBackoff, ip); err != nil {
			return err
		}
		return unauthorized("Wrong username or password. Do you have caps lock on?")
	}
	if err := s.limiter.Reset(c.Context(), s.limits.loginPair, loginPairKey(email, ip)); err != nil {
		return err
	}
	if err := s.signIn(c, u, false); err != nil {
		return err
	}
	return respond(c, toUserResponse(u))
}

// postLogout ends the session: its cookie is refused from now on by every replica.
func (s *server) postLogout(c fiber.Ctx) error {
	if err := s.signOut(c); err != nil {
		return err
	}
	return respond(c, fiber.Map{"loggedOut": true})
}

func (s *server) getMe(c fiber.Ctx) error { return respond(c, toUserResponse(sessionUser(c))) }

type accountRequest struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Password  string `json:"password"`
}

// fields validates the profile part of a request: e-mail, first and last name.
func (r accountRequest) fields() (store.AccountFields, error) {
	if r.Email == "" {
		return store.AccountFields{}, badRequest("Email is mandatory")
	}
	email, err := auth.NormalizeEmail(r.Email)
	if err != nil {
		return store.AccountFields{}, policyError(err)
	}
	first, err := auth.ValidateName("firstName", r.FirstName)
	if err != nil {
		return store.AccountFields{}, policyError(err)
	}
	last, err := auth.ValidateName("lastName", r.LastName)
	if err != nil {
		return store.AccountFields{}, policyError(err)
	}
	return store.AccountFields{Email: email, FirstName: first, LastName: last}, nil
}

func emailTaken(err error) error {
	if errors.Is(err, store.ErrConflict) {
		return &apiError{Status: fiber.StatusConflict, Message: "This email is already in use", cause: err}
	}
	return err
}

// postOwner turns the default owner into the instance owner (once) and signs the browser in as it.
func (s *server) postOwner(c fiber.Ctx) error {
	if err := s.requireUserManagement(); err != nil {
		return err
	}
	var req accountRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	me := sessionUser(c)
	if !isDefaultUser(me) {
		return &apiError{Status: fiber.StatusConflict, Message: "The instance owner is already set up"}
	}
	f, err := req.fields()
	if err != nil {
		return err
	}
	hash, err := hashNewPassword(req.Password)
	if err != nil {
		return err
	}
	owner, err := s.in.Store.SetUpOwner(c.Context(), me.ID, f, hash)
	if errors.Is(err, store.ErrAlreadySetUp) {
		return &apiError{Status: fiber.StatusConflict, Message: "The instance owner is already set up", cause: err}
	}
	if err != nil {
		return emailTaken(err)
	}
	if err := s.signIn(c, owner, false); err != nil {
		return err
	}
	return respond(c, toUserResponse(owner))
}

// postSkipOwnerSetup stops offering owner setup; the instance keeps running as the default
// owner until someone sets it up from the users settings.
func (s *server) postSkipOwnerSetup(c fiber.Ctx) error {
	if err := s.in.Store.SetSetting(c.Context(), store.SettingSkipOwnerSetup, "true"); err != nil {
		return err
	}
	return respond(c, fiber.Map{"success": true})
}

// patchMe updates the caller's names and e-mail.
func (s *server) patchMe(c fiber.Ctx) error {
	var req accountRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	f, err := req.fields()
	if err != nil {
		return err
	}
	u, err := s.in.Store.UpdateProfile(c.Context(), sessionUser(c).ID, f)
	if err != nil {
		return emailTaken(err)
	}
	return respond(c, toUserResponse(u))
}

type passwordChange struct {
	CurrentPassword *string `json:"currentPassword"`
	NewPassword     *string `json:"newPassword"`
}

// patchMyPassword changes the caller's password after checking the current one; every other
// session of the user ends, this browser gets a new cookie.
func (s *server) patchMyPassword(c fiber.Ctx) error {
	var req passwordChange
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if req.CurrentPassword == nil || req.NewPassword == nil {
		return badRequest("currentPassword and newPassword are both required")
	}
	me := sessionUser(c)
	pair := loginPairKey(deref(me.Email), s.clientIP(c))
	if err := s.limit(c, s.limits.loginPair, pair); err != nil {
		return err
	}
	if !auth.CheckPassword(deref(me.Password), *req.CurrentPassword) {
		return badRequest("Provided current password is incorrect.")
	}
	hash, err := hashNewPassword(*req.NewPassword)
	if err != nil {
		return err
	}
	if err := s.in.Store.SetPassword(c.Context(), me.ID, hash); err != nil {
		return err
	}
	if err := s.limiter.Reset(c.Context(), s.limits.loginPair, pair); err != nil {
		return err
	}
	me.Password = &hash
	if err := s.signIn(c, me, false); err != nil {
		return err
	}
	return respond(c, fiber.Map{"success": true})
}

// surveyMaxBytes bounds stored personalization answers.
const surveyMaxBytes = 8 << 10

// surveyVersion is the version of the personalization survey the editor asks.
const surveyVersion = "v2"

// postSurvey stores the caller's personalization answers (an object of strings and string
// lists, tagged with the survey version).
func (s *server) postSurvey(c fiber.Ctx) error {
	if len(c.Body()) > surveyMaxBytes {
		return badRequest("Personalization answers may be at most 8 KiB")
	}
	var answers map[string]any
	if err := json.Unmarshal(c.Body(), &answers); err != nil || answers == nil {
		return badRequest("Personalization answers are mandatory: send a JSON object")
	}
	if v, ok := answers["version"]; !ok {
		answers["version"] = surveyVersion
	} else if v != surveyVersion {
		return badRequest("Unsupported survey version: want \"" + surveyVersion + "\"")
	}
	for k, v := range answers {
		if !isAnswer(v) {
			return badRequest("Answer " + k + " must be a string, a list of strings or null")
		}
	}
	b, _ := json.Marshal(answers)
	if err := s.in.Store.SaveSurvey(c.Context(), sessionUser(c).ID, store.JSON(b)); err != nil {
		return err
	}
	return respond(c, fiber.Map{"success": true})
}

func isAnswer(v any) bool {
	switch t := v.(type) {
	case nil, string:
		return true
	case []any:
		for _, e := range t {
			if _, ok := e.(string); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// now is the server's clock, for token expiry.
func (s *server) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// announceSetup logs the setup link while the instance has no owner account (or user management
// is off): browsers on other machines need its token to get in (see getLogin).
func (s *server) announceSetup(ctx context.Context) {
	if !s.cfg.UserManagementDisabled {
		setUp, err := s.in.Store.GetSetting(ctx, store.SettingOwnerSetUp)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("owner setup state unknown", "err", err)
			return
		}
		if setUp == "true" {
			return
		}
	}
	link := s.cfg.PublicURL + "setup?" + url.Values{"setupToken": {auth.SetupToken(s.cfg.EncryptionKey)}}.Encode()
	if s.cfg.UserManagementDisabled {
		link = s.cfg.PublicURL + "?" + url.Values{"setupToken": {auth.SetupToken(s.cfg.EncryptionKey)}}.Encode()
	}
	s.log.Info("no owner account yet: browsers on this machine get in without a token; from elsewhere open the setup link", "link", link)
}

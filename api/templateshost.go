package main

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/templates"
)

// builtinTemplatesHost is where the built-in templates host is served, relative to the base
// path; the settings name it as the templates host unless FLOWMILL_TEMPLATES_HOST is set.
const builtinTemplatesHost = "templates-host/"

// Limits of the templates host's query parameters.
const (
	// templatesDefaultRows is the page size when rows is not given (the editor asks for 10).
	templatesDefaultRows = 10
	// templatesMaxSearch is the longest search text, in characters.
	templatesMaxSearch = 200
)

// The answers below have the shapes of n8n's public templates API (api.n8n.io), unwrapped: the
// editor's client reads them as they are, from this host or another of that shape.

type templateSummary struct {
	ID         int              `json:"id"`
	Name       string           `json:"name"`
	CreatedAt  time.Time        `json:"createdAt"`
	TotalViews int              `json:"totalViews"`
	User       templates.User   `json:"user"`
	Nodes      []templates.Node `json:"nodes"`
}

type templateDetail struct {
	templateSummary
	Description string               `json:"description"`
	Image       []templates.Image    `json:"image"`
	Categories  []templates.Category `json:"categories"`
	Workflow    templates.Workflow   `json:"workflow"`
}

type collectionSummary struct {
	ID        int              `json:"id"`
	Name      string           `json:"name"`
	Nodes     []templates.Node `json:"nodes"`
	Workflows []idRef          `json:"workflows"`
}

type idRef struct {
	ID int `json:"id"`
}

type collectionDetail struct {
	ID          int                  `json:"id"`
	Name        string               `json:"name"`
	Description string               `json:"description"`
	Image       []templates.Image    `json:"image"`
	Categories  []templates.Category `json:"categories"`
	CreatedAt   time.Time            `json:"createdAt"`
	Nodes       []templates.Node     `json:"nodes"`
	Workflows   []templateSummary    `json:"workflows"`
}

// workflowTemplate is what "Use this workflow" imports (n8n's IWorkflowTemplate).
type workflowTemplate struct {
	ID       int                `json:"id"`
	Name     string             `json:"name"`
	Workflow templates.Workflow `json:"workflow"`
}

func summaryOf(t *templates.Template) templateSummary {
	return templateSummary{ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, TotalViews: t.TotalViews,
		User: templates.User{Username: t.Author}, Nodes: t.Nodes}
}

// catalogue is the library the host serves; with templates off the host is not there.
func (s *server) catalogue() (*templates.Catalogue, error) {
	if s.templates == nil {
		return nil, notFound("The template library is turned off (FLOWMILL_TEMPLATES_ENABLED=false)")
	}
	return s.templates()
}

func (s *server) templatesHealth(c fiber.Ctx) error {
	if _, err := s.catalogue(); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": "OK"})
}

func (s *server) templatesCategories(c fiber.Ctx) error {
	cat, err := s.catalogue()
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"categories": cat.Categories()})
}

func (s *server) templatesCollections(c fiber.Ctx) error {
	cat, err := s.catalogue()
	if err != nil {
		return err
	}
	q, err := templatesQuery(c)
	if err != nil {
		return err
	}
	out := []collectionSummary{}
	for _, col := range cat.SearchCollections(q) {
		refs := make([]idRef, len(col.Workflows))
		for i, t := range col.Workflows {
			refs[i] = idRef{ID: t.ID}
		}
		out = append(out, collectionSummary{ID: col.ID, Name: col.Name, Nodes: col.Nodes, Workflows: refs})
	}
	return c.JSON(fiber.Map{"collections": out})
}

func (s *server) templatesWorkflows(c fiber.Ctx) error {
	cat, err := s.catalogue()
	if err != nil {
		return err
	}
	q, err := templatesQuery(c)
	if err != nil {
		return err
	}
	skip, err := queryInt(c, "skip", 0, 0, 1<<31-1)
	if err != nil {
		return err
	}
	rows, err := queryInt(c, "rows", templatesDefaultRows, 1, templates.MaxRows)
	if err != nil {
		return err
	}
	page, total := cat.SearchTemplates(q, skip, rows)
	out := make([]templateSummary, len(page))
	for i, t := range page {
		out[i] = summaryOf(t)
	}
	return c.JSON(fiber.Map{"totalWorkflows": total, "workflows": out})
}

func (s *server) templatesWorkflow(c fiber.Ctx) error {
	t, err := s.templateByID(c)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"workflow": templateDetail{templateSummary: summaryOf(t), Description: t.Description,
		Image: []templates.Image{}, Categories: t.Categories, Workflow: t.Workflow}})
}

func (s *server) templatesWorkflowImport(c fiber.Ctx) error {
	t, err := s.templateByID(c)
	if err != nil {
		return err
	}
	return c.JSON(workflowTemplate{ID: t.ID, Name: t.Name, Workflow: t.Workflow})
}

func (s *server) templatesCollection(c fiber.Ctx) error {
	cat, err := s.catalogue()
	if err != nil {
		return err
	}
	id, err := templateID(c, "collection")
	if err != nil {
		return err
	}
	col, ok := cat.Collection(id)
	if !ok {
		return notFound("Collection " + strconv.Itoa(id) + " was not found")
	}
	flows := make([]templateSummary, len(col.Workflows))
	for i, t := range col.Workflows {
		flows[i] = summaryOf(t)
	}
	return c.JSON(fiber.Map{"collection": collectionDetail{ID: col.ID, Name: col.Name, Description: col.Description,
		Image: []templates.Image{}, Categories: col.Categories, CreatedAt: col.CreatedAt, Nodes: col.Nodes, Workflows: flows}})
}

func (s *server) templateByID(c fiber.Ctx) (*templates.Template, error) {
	cat, err := s.catalogue()
	if err != nil {
		return nil, err
	}
	id, err := templateID(c, "template")
	if err != nil {
		return nil, err
	}
	t, ok := cat.Template(id)
	if !ok {
		return nil, notFound("Template " + strconv.Itoa(id) + " was not found")
	}
	return t, nil
}

// templateID reads the :id path parameter of a template or collection, a positive whole number.
func templateID(c fiber.Ctx, what string) (int, error) {
	id, err := strconv.Atoi(c.Params("id"))
	if err != nil || id <= 0 {
		return 0, badRequest("The " + what + " id must be a positive whole number, not " + strconv.Quote(c.Params("id")))
	}
	return id, nil
}

// templatesQuery reads search and category (comma-separated category ids; empty means all).
func templatesQuery(c fiber.Ctx) (templates.Query, error) {
	q := templates.Query{Search: c.Query("search")}
	if utf8.RuneCountInString(q.Search) > templatesMaxSearch {
		return q, badRequest("search may be at most " + strconv.Itoa(templatesMaxSearch) + " characters long")
	}
	for _, part := range strings.Split(c.Query("category"), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, err := strconv.Atoi(part)
		if err != nil || id <= 0 {
			return q, badRequest("category must list category ids separated by commas, such as 1,4; " + strconv.Quote(part) + " is not one")
		}
		q.Categories = append(q.Categories, id)
	}
	return q, nil
}

// queryInt reads an optional whole-number query parameter within [lo, hi].
func queryInt(c fiber.Ctx, name string, def, lo, hi int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, badRequest(name + " must be a whole number from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi) + ", not " + strconv.Quote(raw))
	}
	return n, nil
}

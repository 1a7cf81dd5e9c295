package main

import (
	"encoding/json"

	"github.com/flowmill/flowmill/pkg/push"
)

func pushMessage(typ string, data any) push.Message { return push.Message{Type: typ, Data: data} }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

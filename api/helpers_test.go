package main

import "github.com/flowmill/flowmill/pkg/push"

func pushMessage(typ string, data any) push.Message { return push.Message{Type: typ, Data: data} }

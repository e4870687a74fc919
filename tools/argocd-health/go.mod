module docsnap.dev/tools/argocd-health

go 1.26

require github.com/yuin/gopher-lua v1.1.2

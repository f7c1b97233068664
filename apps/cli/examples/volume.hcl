# A CSI volume specification, as the reference CLI's `volume register` reads it.
id          = "pg-data"
name        = "Postgres data"
type        = "csi"
external_id = "vol-0abc"
plugin_id   = "disk"

capacity_min = "10GiB"
capacity_max = "20GiB"

capability {
  access_mode     = "single-node-writer"
  attachment_mode = "file-system"
}

capability {
  access_mode     = "single-node-reader-only"
  attachment_mode = "file-system"
}

mount_options {
  fs_type     = "ext4"
  mount_flags = ["noatime"]
}

secrets {
  password = "s3cr3t-never-shown"
}

parameters {
  iops = "3000"
}

context {
  endpoint = "10.0.0.9"
}

topology_request {
  required {
    topology {
      segments {
        rack = "r1"
      }
    }
  }
}

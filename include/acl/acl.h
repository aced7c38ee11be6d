/*
 * acl/acl.h: the umbrella header of the ACL runtime API (see acl_rt.h).
 */
#ifndef ACL_ACL_H_
#define ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"

#endif /* ACL_ACL_H_ */
